include db::server
