package i18n

// LanguageText is the language switcher of every page's header.
type LanguageText struct {
	Name  string // the language's own name, as the switcher offers it ("Deutsch")
	Label string // the switcher's accessible name
	Menu  string // the small-screen menu's button (layout.templ)
}

var englishLanguage = LanguageText{Name: "English", Label: "Language", Menu: "Menu"}

var germanLanguage = LanguageText{Name: "Deutsch", Label: "Sprache", Menu: "Menü"}

// ByLang is the catalogue of exactly that tag ("en", "de"), nil for any other: a language
// cookie names one of Supported or is ignored.
func ByLang(tag string) *Catalog {
	for _, c := range Supported {
		if c.Lang == tag {
			return c
		}
	}
	return nil
}
