package validate

import (
	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/syntax"
)

// syntaxChecker returns the checker of the text of a heredoc that names
// its syntax, @(END:json), or nil if there is none. A checker returns a
// message, or "" when the text is valid.
func syntaxChecker(name string) func(syntax, text string) string {
	switch name {
	case "json":
		return checkJSON
	case "base64":
		return checkBase64
	case "pp":
		return checkPP
	case "epp":
		return checkEPP
	}
	return nil
}

// checkHeredoc checks the text of a heredoc without interpolation against
// the checker for its syntax. For a syntax a+b+c the checkers of a+b+c, b+c
// and c are tried in that order; a syntax without a checker is not checked.
func (v *validator) checkHeredoc(h *syntax.Heredoc) {
	text, ok := h.Text.(*syntax.StringLit)
	if !ok || h.Syntax == "" {
		return
	}
	segments := strings.Split(h.Syntax, "+")
	for i := range segments {
		check := syntaxChecker(strings.Join(segments[i:], "+"))
		if check == nil {
			continue
		}
		if msg := check(h.Syntax, text.Value); msg != "" {
			v.error(text, diag.HeredocTextInvalid, "Invalid produced text having syntax: '"+h.Syntax+"'. "+msg)
		}
		return
	}
}

func checkJSON(_, text string) string {
	var x any
	if err := json.Unmarshal([]byte(text), &x); err != nil {
		msg := err.Error()
		if len(msg) > 100 {
			msg = msg[:100]
		}
		return `JSON syntax checker: Cannot parse invalid JSON string. "` + strings.ReplaceAll(msg, "\n", `\n`) + `"`
	}
	return ""
}

func checkBase64(_, text string) string {
	clean := strings.Map(func(r rune) rune {
		switch r {
		case '\r', '\n', '?', ' ', '\t':
			return -1
		}
		return r
	}, text)
	if _, err := base64.StdEncoding.DecodeString(clean); err == nil {
		return ""
	}
	if len(clean)*8%6 != 0 {
		return "Base64 syntax checker: Cannot parse invalid Base64 string - padding is not correct"
	}
	return "Base64 syntax checker: Cannot parse invalid Base64 string - contains letters outside strict base 64 range (or whitespace)"
}

func checkPP(syntaxName, text string) string {
	if syntaxName != "pp" {
		// Puppet checks only the exact syntax pp this way.
		return ""
	}
	_, _, err := ParseFile("", []byte(text))
	return checkerMessage("PP", err)
}

func checkEPP(_, text string) string {
	prog, err := syntax.ParseEPP("", []byte(text))
	if err == nil {
		errs, _ := EPP(prog)
		err = errs.Err()
	}
	return checkerMessage("EPP", err)
}

// checkerMessage returns the message of a checker that parsed the text as
// Puppet code: the first error, without its position.
func checkerMessage(kind string, err error) string {
	if err == nil {
		return ""
	}
	msg := err.Error()
	if list, ok := err.(diag.List); ok && len(list) > 0 {
		msg = list[0].Message
	}
	return kind + ` syntax checker: "` + strings.ReplaceAll(msg, "\n", `\n`) + `"`
}

// EPP validates an EPP template the parser accepted. It returns the errors,
// in the order Puppet reports them, and the warnings.
func EPP(prog *syntax.EPPProgram) (errs, warnings diag.List) {
	v := &validator{file: prog.File}
	v.walk(prog)
	return v.errs, v.warnings
}
