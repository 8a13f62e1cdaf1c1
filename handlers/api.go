package handlers

// taskAPI holds the handlers of /api/v1/user-tasks. Each handler parses its request, calls the
// service once and renders the answer; every error goes to the one error handler.
type taskAPI struct {
	tasks TaskService
}
