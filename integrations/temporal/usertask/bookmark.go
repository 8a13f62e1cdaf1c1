package usertask

import (
	"errors"
	"fmt"
	"strings"
)

// Limits of the ids User Tasks accepts (its bookmark and workflow ids are at most 128 characters).
const (
	maxBookmarkID = 128
	maxStep       = 40
)

// ErrBadBookmark is returned for a bookmark id this integration did not make.
var ErrBadBookmark = errors.New("usertask: not a bookmark id of this integration")

// BookmarkID is the bookmark of one wait: workflow id, run id and step, joined by "/". The step
// and the run id never hold a "/", so ParseBookmarkID splits from the right and the workflow
// id may hold anything, "/" included.
func BookmarkID(workflowID, runID, step string) (string, error) {
	if err := checkStep(step); err != nil {
		return "", err
	}
	if workflowID == "" || runID == "" || strings.Contains(runID, "/") {
		return "", fmt.Errorf("usertask: a workflow id and a run id without %q are needed", "/")
	}
	id := workflowID + "/" + runID + "/" + step
	if len(id) > maxBookmarkID {
		return "", fmt.Errorf("usertask: workflow id and step %q make a bookmark id of %d bytes; User Tasks takes at most %d (shorten the workflow id)", step, len(id), maxBookmarkID)
	}
	return id, nil
}

// ParseBookmarkID is the inverse of BookmarkID.
func ParseBookmarkID(id string) (workflowID, runID, step string, err error) {
	i := strings.LastIndexByte(id, '/')
	if i <= 0 {
		return "", "", "", ErrBadBookmark
	}
	rest, step := id[:i], id[i+1:]
	j := strings.LastIndexByte(rest, '/')
	if j <= 0 || j == len(rest)-1 || checkStep(step) != nil {
		return "", "", "", ErrBadBookmark
	}
	return rest[:j], rest[j+1:], step, nil
}

// SignalName is the signal that carries the decision of one step to its workflow.
func SignalName(step string) string { return "usertasks.decision." + step }

// MemoKey is the workflow memo entry that holds a waiting step's projection: the runtime
// endpoint answers reconciliation from it, even while no worker runs.
func MemoKey(step string) string { return MemoPrefix + step }

// MemoPrefix starts every memo key of a waiting step.
const MemoPrefix = "usertasks.bookmark."

// checkStep allows letters, digits, '-', '_' and '.', so a step is safe in a signal name, a memo
// key and the last segment of a bookmark id.
func checkStep(step string) error {
	if step == "" || len(step) > maxStep {
		return fmt.Errorf("usertask: the step must have 1 to %d characters", maxStep)
	}
	for _, r := range step {
		ok := r == '-' || r == '_' || r == '.' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !ok {
			return fmt.Errorf("usertask: the step %q may hold only letters, digits, '-', '_' and '.'", step)
		}
	}
	return nil
}
