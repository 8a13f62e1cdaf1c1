package views

import "testing"

func TestBellCount(t *testing.T) {
	for _, tc := range []struct {
		bell Bell
		want string
	}{
		{Bell{}, ""}, {Bell{Unread: 1}, "1"}, {Bell{Unread: 99}, "99"}, {Bell{Unread: 100}, "99+"},
		{Bell{Unread: 5, Unknown: true}, ""},
	} {
		if got := tc.bell.Count(); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.bell, got, tc.want)
		}
	}
}
