include web
web::vhost { 'shop.example.com': }
notify { "site module=[${module_name}]": }
