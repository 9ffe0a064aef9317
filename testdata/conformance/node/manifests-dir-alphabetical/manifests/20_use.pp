notify { "20_use sees ${greeting}": }
