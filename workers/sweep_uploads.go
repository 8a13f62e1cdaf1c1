package workers

import (
	"context"
	"time"

	"usertasks/models"
)

// UploadSweepEvery is how often the due sweep removes attachment uploads left unfinished (a
// crash or a client gone mid-upload): they are invisible anyway, so the sweep only reclaims
// their chunks.
const UploadSweepEvery = 5 * time.Minute

// uploadSweepPage bounds one call's uploads; a next sweep takes the rest.
const uploadSweepPage = 100

// sweepUploads removes the uploads unfinished for longer than models.AttachmentUploadBound,
// when UploadSweepEvery has passed.
func (s *DueSweeper) sweepUploads(ctx context.Context, res *SweepResult) error {
	if !s.lastUploadSweep.IsZero() && time.Since(s.lastUploadSweep) < UploadSweepEvery {
		return nil
	}
	n, err := s.store.SweepAttachmentUploads(ctx, models.AttachmentUploadBound, uploadSweepPage)
	if err != nil {
		return err
	}
	s.lastUploadSweep = time.Now()
	res.SweptUploads = n
	if n > 0 {
		s.log.Info("unfinished attachment uploads removed", "uploads", n)
	}
	return nil
}
