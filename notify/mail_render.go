package notify

import (
	htmltemplate "html/template"
	"strings"
)

// mailHTML is a mail's HTML part: html/template escapes every value, and a link that is not
// http(s) becomes "#ZgotmplZ". Styles are inline (mail clients drop style sheets); nothing is
// loaded from anywhere.
var mailHTML = htmltemplate.Must(htmltemplate.New("mail").Parse(`<!DOCTYPE html>
<html lang="{{.Lang}}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>{{.Subject}}</title></head>
<body style="margin:0;padding:16px;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#1f2328;background:#ffffff;">
<p style="margin:0 0 12px;">{{.Lead}}</p>
{{range .Tasks}}<div style="border:1px solid #d0d7de;border-radius:6px;padding:12px 16px;margin:0 0 12px;">
<h2 style="font-size:17px;margin:0 0 8px;">{{.Title}}</h2>
{{if .Fields}}<table role="presentation" style="border-collapse:collapse;margin:0 0 8px;">
{{range .Fields}}<tr><th scope="row" style="text-align:left;font-weight:normal;color:#57606a;padding:2px 16px 2px 0;">{{.Label}}</th><td style="padding:2px 0;">{{.Value}}</td></tr>
{{end}}</table>{{end}}
{{if .Events}}<ul style="margin:0 0 8px;padding-left:20px;">
{{range .Events}}<li>{{.}}</li>
{{end}}</ul>{{end}}
<p style="margin:0;"><a href="{{.Link}}" style="color:#0969da;">{{.Open}}</a></p>
</div>
{{end}}<hr style="border:none;border-top:1px solid #d0d7de;margin:16px 0;">
<p style="margin:0 0 8px;font-size:13px;color:#57606a;">{{.Why}}</p>
<p style="margin:0 0 8px;font-size:13px;"><a href="{{.UnsubscribeURL}}" style="color:#0969da;">{{.UnsubscribeLabel}}</a> · <a href="{{.SettingsURL}}" style="color:#0969da;">{{.SettingsLabel}}</a></p>
<p style="margin:0;font-size:13px;color:#57606a;">{{.Automatic}}</p>
</body>
</html>
`))

// render is v as plain text and as HTML.
func (v mailView) render() (string, string, error) {
	var b strings.Builder
	b.WriteString(v.Lead + "\n")
	for _, t := range v.Tasks {
		b.WriteString("\n" + t.Title + "\n")
		for _, f := range t.Fields {
			b.WriteString(f.Label + ": " + f.Value + "\n")
		}
		for _, e := range t.Events {
			b.WriteString("- " + e + "\n")
		}
		b.WriteString(t.Open + ": " + t.Link + "\n")
	}
	b.WriteString("\n-- \n" + v.Why + "\n")
	b.WriteString(v.UnsubscribeLabel + ": " + v.UnsubscribeURL + "\n")
	b.WriteString(v.SettingsLabel + ": " + v.SettingsURL + "\n")
	b.WriteString(v.Automatic + "\n")
	var h strings.Builder
	if err := mailHTML.Execute(&h, v); err != nil {
		return "", "", err
	}
	return b.String(), h.String(), nil
}
