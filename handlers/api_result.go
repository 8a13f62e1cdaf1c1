package handlers

import "usertasks/tasks"

// resultJSON answers every command: the operation, whether the workflow still has to
// acknowledge it ("accepted") or it is done ("completed"), the revision it produced and the
// task as the caller now sees it. A replay answers with the stored operation's result.
type resultJSON struct {
	OperationID string      `json:"operationId"`
	Status      string      `json:"status"`
	Revision    int         `json:"revision"`
	Task        summaryJSON `json:"task"`
}

func resultOf(r tasks.Result) resultJSON {
	return resultJSON{OperationID: r.OperationID, Status: r.Status, Revision: r.Revision, Task: summaryOf(r.Task)}
}
