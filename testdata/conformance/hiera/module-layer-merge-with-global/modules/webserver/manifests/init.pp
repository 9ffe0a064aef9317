class webserver { }
