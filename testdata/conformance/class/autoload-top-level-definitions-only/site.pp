include web
web::site { 'a': }
