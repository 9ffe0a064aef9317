package ruby

// sensitiveClass is the Ruby class of Puppet's Sensitive values.
const sensitiveClass = "Puppet::Pops::Types::PSensitiveType::Sensitive"

// rsensitive is a Puppet Sensitive value as Ruby code sees it: its value
// comes out only through unwrap (mysql::password, postgresql_password).
type rsensitive struct{ v any }

// sensitiveText is what to_s and interpolation show instead of the value.
const sensitiveText = "Sensitive [value redacted]"

// sensitiveMethod is a method of a Sensitive: unwrap (yielding the value
// to a block when given one), to_s and inspect.
func (in *interp) sensitiveMethod(line int, s *rsensitive, name string, args []any, blk *blockVal) (any, bool, error) {
	if len(args) != 0 {
		return nil, false, nil
	}
	switch name {
	case "unwrap":
		if blk != nil {
			v, err := in.yield(line, blk, s.v)
			return v, true, err
		}
		return s.v, true, nil
	case "to_s":
		return newStr(sensitiveText), true, nil
	case "inspect":
		return newStr("#<" + sensitiveText + ">"), true, nil
	}
	return nil, false, nil
}
