class a
