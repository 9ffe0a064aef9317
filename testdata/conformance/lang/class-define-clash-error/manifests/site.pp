class a {}
define a() {}
include a
