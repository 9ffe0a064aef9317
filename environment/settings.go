package environment

import (
	"math"
	"strconv"
	"strings"

	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/value"
)

// catalogSettings types the settings as Puppet shows them to the code of a
// compile ($settings::name): booleans, integers (durations in seconds),
// arrays, and undef for optional settings nobody set.
func catalogSettings(s *puppetconf.Settings) []Setting {
	list := s.CatalogSettings()
	out := make([]Setting, len(list))
	for i, st := range list {
		out[i] = Setting{Name: st.Name, Value: settingValue(st)}
	}
	return out
}

func settingValue(st puppetconf.CatalogSetting) value.Value {
	v := st.Value
	switch st.Kind {
	case puppetconf.KindBoolean:
		switch v {
		case "true":
			return value.Boolean(true)
		case "false":
			return value.Boolean(false)
		}
	case puppetconf.KindInteger:
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return value.Integer(n)
		}
		if d, err := puppetconf.ParseTimeout(v, st.Name); err == nil && d != puppetconf.Unlimited {
			return value.Integer(int64(d.Seconds()))
		}
	case puppetconf.KindFloat:
		if v == "unlimited" || v == "inf" || v == "infinity" {
			return value.Float(math.Inf(1))
		}
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return value.Float(f)
		}
	case puppetconf.KindArray:
		// A comma-separated list, as puppet.conf writes arrays.
		items := value.Array{}
		for _, item := range strings.Split(v, ",") {
			if item = strings.TrimSpace(item); item != "" {
				items = append(items, value.String(item))
			}
		}
		return items
	case puppetconf.KindUndef:
		if v == "" {
			return value.Undef
		}
	}
	// A value of the wrong form is shown as the string it is, as Puppet
	// shows settings it cannot convert.
	return value.String(v)
}
