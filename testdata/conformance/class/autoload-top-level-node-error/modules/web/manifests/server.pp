class web::server {
  notify { 'server': }
}
node default {
  notify { 'from module node': }
}
