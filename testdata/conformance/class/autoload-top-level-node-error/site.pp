include web::server
