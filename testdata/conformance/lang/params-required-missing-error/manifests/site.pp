class needsone(String $value) { }
include needsone
