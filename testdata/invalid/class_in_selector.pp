$x = 1 ? { default => class a {} }
