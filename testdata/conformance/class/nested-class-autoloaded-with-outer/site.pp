include web
include web::tuning
