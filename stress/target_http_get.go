package stress

import (
	"context"
	"io"
	"net/http"
	"net/url"

	"usertasks/models"
)

// Get sends GET path?query as a, with the extra headers (e.g. X-Request-Id), and returns the
// status and up to 4 MiB of the body, whatever the status. `web stress bench` pages the inbox
// matrix with it.
func (h *HTTPTarget) Get(ctx context.Context, a models.Actor, path string, query url.Values, header http.Header) (int, []byte, error) {
	u := *h.base
	u.Path += path
	u.RawQuery = query.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return 0, nil, err
	}
	tok, err := h.token(a)
	if err != nil {
		return 0, nil, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err := h.cfg.Client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 4<<20))
	return res.StatusCode, data, err
}
