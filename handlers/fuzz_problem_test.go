package handlers

import "usertasks/models"

// DocumentedProblem reports whether an error answer's status and code are a row of the problem
// table (problem.go) or the 413 of the body limit — the only errors the fuzz targets accept.
// The internal error is not among them: no input may cause a 500.
func DocumentedProblem(status int, code string) bool {
	if status == bodyTooLarge.status {
		return code == string(models.CodePayloadTooLarge)
	}
	k, ok := problemKinds[models.Code(code)]
	return ok && k.status == status && code != string(models.CodeInternal)
}
