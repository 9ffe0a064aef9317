(class a {})
