package workers_test

import (
	"context"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/notify"
	"usertasks/testfactory"
	"usertasks/workers"
	"usertasks/workflow"
)

// kickNotifications wakes the notification delivery on every committed change, as cmd/web's
// change notifier does.
type kickNotifications struct{ w *workers.Workers }

func (k kickNotifications) Changed(string, string, int) { k.w.KickNotifications() }

// The notification loop delivers what a commit wrote soon after the commit (not on its hourly
// poll), and records its runs as the worker notify.
func TestNotificationsGoOutOnAKickAndRecordRuns(t *testing.T) {
	s := wkSQLite(t).open(t, nil)
	log, _ := wkLogger(t)
	w := workers.New(s, workflow.NewLoopback(s), workers.Options{
		Owner: "node-a", DispatchEvery: time.Hour, SweepEvery: time.Hour, ReconcileAfter: time.Hour, NotifyEvery: time.Hour,
		Notify: notify.NewDeliverer(s, notify.Options{Owner: "node-a", BaseURL: "https://tasks.example", Logger: log}),
		Logger: log,
	})
	s.NotifyChanges(kickNotifications{w})
	defer s.NotifyChanges(nil)
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); w.Run(ctx) }()
	time.Sleep(100 * time.Millisecond) // past the first poll: only a kick delivers now

	task := testfactory.Task(t.Context(), t, s, &testfactory.TaskOpts{Tenant: "t1", Assignee: "ann"})
	shown := func() bool {
		page, err := s.Notifications(t.Context(), models.NotificationQuery{Tenant: "t1", Recipient: testfactory.User("t1", "ann")})
		return err == nil && len(page.Items) == 1 && page.Items[0].TaskID == task.ID
	}
	wkEventually(t, 5*time.Second, "the assignment shown to ann after the commit's kick", shown)
	stop()
	<-done

	runs, err := s.WorkerRuns(context.Background(), "t1", models.WorkerNotify, 10)
	if err != nil || len(runs) != 1 || runs[0].Counts["shown"] != 1 || runs[0].Counts["claimed"] != 1 {
		t.Fatalf("runs %+v, %v", runs, err)
	}
}
