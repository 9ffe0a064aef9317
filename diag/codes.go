package diag

// Code names a kind of problem, stable across releases and wordings, so
// that tests and tools match codes rather than prose (as OPA's error codes
// do). Where Puppet has an issue for the problem (lib/puppet/pops/issues.rb)
// the code is its issue code, spelled as Puppet spells it; the others are
// marionette's, in the same style, for problems Puppet reports without an
// issue (a missing class, a duplicate resource).
type Code string

// Args are a diagnostic's arguments by name, named as Puppet names its
// issues' arguments where it has them: "name" (of an unknown class,
// function or variable, a reassigned variable), "type_name" (an unknown
// resource type, as written), "operator", "value" (not numeric, coerced),
// "param_name", "param_value" (an unmatched selector), "key" (a hash key
// given twice), "attribute" (set twice); and marionette's: "function" (whose call was rejected),
// "resource" and "previous" (a duplicate declaration and the position of
// the first one).
type Args map[string]any

// Codes of the scanner and the parser.
const (
	SyntaxError                     Code = "SYNTAX_ERROR"
	InvalidUTF8                     Code = "INVALID_UTF8"
	UnclosedQuote                   Code = "UNCLOSED_QUOTE"
	UnclosedMLComment               Code = "UNCLOSED_MLCOMMENT"
	IllegalNumber                   Code = "ILLEGAL_NUMBER"
	InvalidOctalNumber              Code = "INVALID_OCTAL_NUMBER"
	InvalidDecimalNumber            Code = "INVALID_DECIMAL_NUMBER"
	NumericOverflow                 Code = "NUMERIC_OVERFLOW"
	IllegalFullyQualifiedName       Code = "ILLEGAL_FULLY_QUALIFIED_NAME"
	IllegalNameOrBareWord           Code = "ILLEGAL_NAME_OR_BARE_WORD"
	IllegalClassReference           Code = "ILLEGAL_CLASS_REFERENCE"
	IllegalFQClassReference         Code = "ILLEGAL_FULLY_QUALIFIED_CLASS_REFERENCE"
	EPPUnbalancedTag                Code = "EPP_UNBALANCED_TAG"
	EPPUnbalancedComment            Code = "EPP_UNBALANCED_COMMENT"
	EPPUnbalancedExpression         Code = "EPP_UNBALANCED_EXPRESSION"
	HeredocUnclosedParenthesis      Code = "HEREDOC_UNCLOSED_PARENTHESIS"
	HeredocInvalidSyntax            Code = "HEREDOC_INVALID_SYNTAX"
	HeredocEmptyEndtag              Code = "HEREDOC_EMPTY_ENDTAG"
	HeredocMultipleAtEscapes        Code = "HEREDOC_MULTIPLE_AT_ESCAPES"
	HeredocInvalidEscape            Code = "HEREDOC_INVALID_ESCAPE"
	HeredocWithoutText              Code = "HEREDOC_WITHOUT_TEXT"
	HeredocWithoutEndTaggedLine     Code = "HEREDOC_WITHOUT_END_TAGGED_LINE"
	AppendsDeletesNoLongerSupported Code = "APPENDS_DELETES_NO_LONGER_SUPPORTED"
	UnsupportedExpression           Code = "UNSUPPORTED_EXPRESSION"
	ReservedWord                    Code = "RESERWED_WORD" // sic: Puppet's spelling
	ResourceWithoutTitle            Code = "RESOURCE_WITHOUT_TITLE"
	// NestingTooDeep is marionette's own limit (syntax.MaxExpressionDepth).
	NestingTooDeep Code = "NESTING_TOO_DEEP"
)

// Codes of the validator (syntax/validate), Puppet's checks after parsing.
const (
	IllegalAttributeAppend       Code = "ILLEGAL_ATTRIBUTE_APPEND"
	DuplicateDefault             Code = "DUPLICATE_DEFAULT"
	ClassNotVirtualizable        Code = "CLASS_NOT_VIRTUALIZABLE"
	NotVirtualizeable            Code = "NOT_VIRTUALIZEABLE"
	MultipleAttributesUnfold     Code = "MULTIPLE_ATTRIBUTES_UNFOLD"
	IllegalNodeInheritance       Code = "ILLEGAL_NODE_INHERITANCE"
	IllegalDefinitionName        Code = "ILLEGAL_DEFINTION_NAME" // sic: Puppet's spelling
	ReservedTypeName             Code = "RESERVED_TYPE_NAME"
	FutureReservedWord           Code = "FUTURE_RESERVED_WORD"
	IdemExpressionNotLast        Code = "IDEM_EXPRESSION_NOT_LAST"
	IdemNotAllowedLast           Code = "IDEM_NOT_ALLOWED_LAST"
	NotTopLevel                  Code = "NOT_TOP_LEVEL"
	NotAbsoluteTopLevel          Code = "NOT_ABSOLUTE_TOP_LEVEL"
	IllegalTopConstructLocation  Code = "ILLEGAL_TOP_CONSTRUCT_LOCATION"
	CapturesRestNotSupported     Code = "CAPTURES_REST_NOT_SUPPORTED"
	CapturesRestNotLast          Code = "CAPTURES_REST_NOT_LAST"
	DuplicateParameter           Code = "DUPLICATE_PARAMETER"
	ReservedParameter            Code = "RESERVED_PARAMETER"
	IllegalNumericParameter      Code = "ILLEGAL_NUMERIC_PARAMETER"
	IllegalParamName             Code = "ILLEGAL_PARAM_NAME"
	IllegalAssignmentContext     Code = "ILLEGAL_ASSIGNMENT_CONTEXT"
	IllegalNumericVarName        Code = "ILLEGAL_NUMERIC_VAR_NAME"
	IllegalVarName               Code = "ILLEGAL_VAR_NAME"
	IllegalExpression            Code = "ILLEGAL_EXPRESSION"
	IllegalHostnameChars         Code = "ILLEGAL_HOSTNAME_CHARS"
	IllegalHostnameInterpolation Code = "ILLEGAL_HOSTNAME_INTERPOLATION"
	DuplicateKey                 Code = "DUPLICATE_KEY"
	IllegalNumericAssignment     Code = "ILLEGAL_NUMERIC_ASSIGNMENT"
	CrossScopeAssignment         Code = "CROSS_SCOPE_ASSIGNMENT"
	IllegalIndexedAssignment     Code = "ILLEGAL_INDEXED_ASSIGNMENT"
	IllegalAssignment            Code = "ILLEGAL_ASSIGNMENT"
	NotRvalue                    Code = "NOT_RVALUE"
	IllegalQueryExpression       Code = "ILLEGAL_QUERY_EXPRESSION"
	// HeredocTextInvalid is a heredoc whose text its declared syntax
	// (e.g. json) rejects.
	HeredocTextInvalid Code = "HEREDOC_TEXT_INVALID"
)

// Codes of evaluation and compilation.
const (
	UnknownVariable     Code = "UNKNOWN_VARIABLE"
	UnknownFunction     Code = "UNKNOWN_FUNCTION"
	UnknownResourceType Code = "UNKNOWN_RESOURCE_TYPE"
	DivByZero           Code = "DIV_BY_ZERO"
	ResultIsInfinity    Code = "RESULT_IS_INFINITY"
	NotNumeric          Code = "NOT_NUMERIC"
	// NumericCoercion is a string used as a number (a strict warning).
	NumericCoercion            Code = "NUMERIC_COERCION"
	OperatorNotApplicable      Code = "OPERATOR_NOT_APPLICABLE"
	OperatorNotApplicableWhen  Code = "OPERATOR_NOT_APPLICABLE_WHEN"
	ComparisonNotPossible      Code = "COMPARISON_NOT_POSSIBLE"
	UnmatchedSelector          Code = "UNMATCHED_SELECTOR"
	MissingRequiredParameter   Code = "MISSING_REQUIRED_PARAMETER"
	IllegalReassignment        Code = "ILLEGAL_REASSIGNMENT"
	IllegalReservedAssignment  Code = "ILLEGAL_RESERVED_ASSIGNMENT"
	IllegalMultiAssignmentSize Code = "ILLEGAL_MULTI_ASSIGNMENT_SIZE"
	MissingMultiAssignmentKey  Code = "MISSING_MULTI_ASSIGNMENT_KEY"
	DiscontinuedImport         Code = "DISCONTINUED_IMPORT"
	DuplicateAttribute         Code = "DUPLICATE_ATTRIBUE" // sic: Puppet's spelling
	MissingTitle               Code = "MISSING_TITLE"
	// UnknownClass is a class that no module or manifest defines
	// (Puppet's "Could not find class").
	UnknownClass Code = "UNKNOWN_CLASS"
	// DuplicateResource is a resource or class declared twice (Puppet's
	// "Duplicate declaration").
	DuplicateResource Code = "DUPLICATE_RESOURCE"
	// ExpectedCollection and ExpectedIntegerIndex are a dig or getvar
	// path that runs into a value it cannot index (Puppet's codes of the
	// Error a block of those functions is given).
	ExpectedCollection   Code = "EXPECTED_COLLECTION"
	ExpectedIntegerIndex Code = "EXPECTED_INTEGER_INDEX"
	// ArgumentMismatch is a function call whose arguments no signature of
	// the function accepts; its "function" argument is the function's
	// name.
	ArgumentMismatch Code = "ARGUMENT_MISMATCH"
)
