notice(class a {})
