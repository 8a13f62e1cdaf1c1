package storekit

import (
	"encoding/json"
	"time"

	"usertasks/models"
)

// NotificationRow is a notification as stored (user_task_notifications): unique on
// (tenant_id, task_id, trigger_kind, revision, recipient_type, recipient_provider, recipient_id),
// so every node may race to write the same key and one row stays. A NULL channel state is
// undecided (Oracle keeps "" as NULL anyway).
type NotificationRow struct {
	ID                string    `gorm:"column:id;primaryKey" bson:"_id"`
	TenantID          string    `gorm:"column:tenant_id" bson:"tenant_id"`
	TaskID            string    `gorm:"column:task_id" bson:"task_id"`
	TriggerKind       string    `gorm:"column:trigger_kind" bson:"trigger_kind"`
	Revision          int64     `gorm:"column:revision" bson:"revision"`
	RecipientProvider string    `gorm:"column:recipient_provider" bson:"recipient_provider"`
	RecipientType     string    `gorm:"column:recipient_type" bson:"recipient_type"`
	RecipientID       string    `gorm:"column:recipient_id" bson:"recipient_id"`
	ActorProvider     *string   `gorm:"column:actor_provider" bson:"actor_provider"`
	ActorType         *string   `gorm:"column:actor_type" bson:"actor_type"`
	ActorID           *string   `gorm:"column:actor_id" bson:"actor_id"`
	ActorDisplay      *string   `gorm:"column:actor_display" bson:"actor_display"`
	Title             string    `gorm:"column:title" bson:"title"`
	State             string    `gorm:"column:state" bson:"state"`
	EmailState        *string   `gorm:"column:email_state" bson:"email_state"`
	WebhookState      *string   `gorm:"column:webhook_state" bson:"webhook_state"`
	Attempts          int       `gorm:"column:attempts" bson:"attempts"`
	AvailableAt       time.Time `gorm:"column:available_at" bson:"available_at"`
	LastError         *string   `gorm:"column:last_error" bson:"last_error"`
	LeaseColumns      `gorm:"embedded" bson:",inline"`
	OccurredAt        time.Time  `gorm:"column:occurred_at" bson:"occurred_at"`
	VisibleAt         *time.Time `gorm:"column:visible_at" bson:"visible_at"`
	ReadAt            *time.Time `gorm:"column:read_at" bson:"read_at"`
	UpdatedAt         time.Time  `gorm:"column:updated_at;autoUpdateTime:false" bson:"updated_at"`
}

// PersonRow is a person as stored (user_task_people), keyed by (tenant_id, provider, user_id):
// the identity of their latest request and their notification preferences. email_prefs is a
// JSON object trigger → bool of what the person set (the defaults fill the rest when read);
// a NULL digest is off.
type PersonRow struct {
	TenantID    string    `gorm:"column:tenant_id;primaryKey" bson:"tenant_id"`
	Provider    string    `gorm:"column:provider;primaryKey" bson:"provider"`
	UserID      string    `gorm:"column:user_id;primaryKey" bson:"user_id"`
	DisplayName *string   `gorm:"column:display_name" bson:"display_name"`
	Email       *string   `gorm:"column:email" bson:"email"`
	Language    *string   `gorm:"column:language" bson:"language"`
	TimeZone    *string   `gorm:"column:time_zone" bson:"time_zone"`
	Manager     bool      `gorm:"column:manager" bson:"manager"`
	SeenAt      time.Time `gorm:"column:seen_at" bson:"seen_at"`
	EmailPrefs  *string   `gorm:"column:email_prefs" bson:"email_prefs"`
	Digest      *string   `gorm:"column:digest" bson:"digest"`
	CreatedAt   time.Time `gorm:"column:created_at;autoCreateTime:false" bson:"created_at"`
	UpdatedAt   time.Time `gorm:"column:updated_at;autoUpdateTime:false" bson:"updated_at"`
}

// Column bounds of the people table: what a request's claims bring that does not fit is not
// recorded (NULL), never an error that would fail the request.
const (
	maxPersonEmail    = 320
	maxPersonLanguage = 8
	maxPersonTimeZone = 64
	maxErrorCode      = 64
)

// NotificationRow encodes n as a new row: pending, channels undecided, attempted never, not
// leased, due at now and last changed at now (the store's clock); the title and the actor's
// display name cut to their columns.
func (c Codec) NotificationRow(n *models.Notification, now time.Time) NotificationRow {
	actor := RefColumnsOf(n.Actor)
	if actor.Display != nil {
		actor.Display = clip(*actor.Display, models.MaxDisplayNameLength)
	}
	return NotificationRow{
		ID: n.ID, TenantID: n.Tenant, TaskID: n.TaskID, TriggerKind: string(n.Trigger), Revision: n.Revision,
		RecipientProvider: n.Recipient.Provider, RecipientType: string(n.Recipient.Type), RecipientID: n.Recipient.ID,
		ActorProvider: actor.Provider, ActorType: actor.Type, ActorID: actor.ID, ActorDisplay: actor.Display,
		Title: *clip(n.Title, models.MaxTitleLength), State: string(models.NotificationPending),
		AvailableAt: c.Time(now), OccurredAt: c.Time(n.OccurredAt), UpdatedAt: c.Time(now),
	}
}

// Notification decodes r, with its lease.
func (c Codec) Notification(r *NotificationRow) models.Notification {
	return models.Notification{
		ID: r.ID, Tenant: r.TenantID, TaskID: r.TaskID, Trigger: models.NotificationTrigger(r.TriggerKind), Revision: r.Revision,
		Recipient: models.ParticipantRef{Tenant: r.TenantID, Provider: r.RecipientProvider, Type: models.ParticipantType(r.RecipientType), ID: r.RecipientID},
		Actor:     RefFrom(r.TenantID, r.ActorProvider, r.ActorType, r.ActorID, r.ActorDisplay),
		Title:     r.Title, State: models.NotificationState(r.State),
		Email: models.ChannelState(Str(r.EmailState)), Webhook: models.ChannelState(Str(r.WebhookState)),
		Attempts: r.Attempts, AvailableAt: c.Time(r.AvailableAt), LastError: Str(r.LastError), Lease: c.Lease(r.LeaseColumns),
		OccurredAt: c.Time(r.OccurredAt), VisibleAt: c.TimePtr(r.VisibleAt), ReadAt: c.TimePtr(r.ReadAt), UpdatedAt: c.Time(r.UpdatedAt),
	}
}

// NotificationErrorCode is the last_error an outcome stores: NULL for none, cut to the column.
func NotificationErrorCode(code string) *string {
	if code == "" {
		return nil
	}
	return clip(code, maxErrorCode)
}

// PersonRow encodes p's identity as recorded at now (a first record: created now, no
// preferences). What does not fit its column, or is not a clean label, is left NULL.
func (c Codec) PersonRow(p *models.Person, now time.Time) PersonRow {
	r := PersonRow{
		TenantID: p.Tenant, Provider: p.User.Provider, UserID: p.User.ID, Manager: p.Manager,
		SeenAt: c.Time(now), CreatedAt: c.Time(now), UpdatedAt: c.Time(now),
	}
	if d := p.User.DisplayName; len(d) <= models.MaxDisplayNameLength && models.TextProblem(d, models.Label) == "" {
		r.DisplayName = Opt(d)
	}
	r.Email = fits(p.Email, maxPersonEmail)
	r.Language = fits(p.Language, maxPersonLanguage)
	r.TimeZone = fits(p.TimeZone, maxPersonTimeZone)
	return r
}

// PreferenceColumns encodes prefs as stored: the known triggers' choices as a JSON object in
// a stable order (NULL when none), and the digest (NULL for off or unknown).
func PreferenceColumns(prefs models.NotificationPreferences) (emailPrefs, digest *string) {
	set := map[string]bool{}
	for t, on := range prefs.Email {
		if t.Valid() {
			set[string(t)] = on
		}
	}
	if len(set) > 0 {
		b, _ := json.Marshal(set) // map keys marshal sorted
		s := string(b)
		emailPrefs = &s
	}
	if prefs.Digest.Valid() && prefs.Digest != models.DigestOff {
		d := string(prefs.Digest)
		digest = &d
	}
	return emailPrefs, digest
}

// Person decodes r, its preferences completed with the defaults; a stored preference that no
// longer parses reads as the defaults rather than failing every notification of the person.
func (c Codec) Person(r *PersonRow) models.Person {
	prefs := models.NotificationPreferences{Digest: models.DigestPeriod(Str(r.Digest))}
	if r.EmailPrefs != nil {
		var set map[string]bool
		if json.Unmarshal([]byte(*r.EmailPrefs), &set) == nil {
			prefs.Email = make(map[models.NotificationTrigger]bool, len(set))
			for t, on := range set {
				prefs.Email[models.NotificationTrigger(t)] = on
			}
		}
	}
	return models.Person{
		Tenant: r.TenantID,
		User:   models.ParticipantRef{Tenant: r.TenantID, Provider: r.Provider, Type: models.UserParticipant, ID: r.UserID, DisplayName: Str(r.DisplayName)},
		Email:  Str(r.Email), Language: Str(r.Language), TimeZone: Str(r.TimeZone), Manager: r.Manager,
		SeenAt: c.Time(r.SeenAt), Preferences: prefs.Complete(),
	}
}

// fits is s for a column of max bytes: NULL when empty or too long.
func fits(s string, max int) *string {
	if len(s) > max {
		return nil
	}
	return Opt(s)
}

// clip cuts s to at most max runes (a column's character bound), whole runes only.
func clip(s string, max int) *string {
	n := 0
	for i := range s {
		if n == max {
			s = s[:i]
			break
		}
		n++
	}
	return &s
}

// CheckPerson refuses what no person's record can hold, in either store: a guest, a group, an
// empty or overlong key.
func CheckPerson(tenant string, user models.ParticipantRef) error {
	if tenant == "" || user.Provider == "" || user.ID == "" || user.Provider == models.GuestProvider ||
		(user.Type != "" && user.Type != models.UserParticipant) {
		return models.InvalidField("user", "must be a user of the tenant")
	}
	if len(tenant) > models.MaxTenantLength || len(user.Provider) > models.MaxProviderLength || len(user.ID) > models.MaxParticipantIDLength {
		return models.InvalidField("user", "is too long")
	}
	return nil
}
