class a(String $name) {}
