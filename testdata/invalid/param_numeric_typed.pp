class a(Integer $1) {}
