notify { "mail=${mail_server} iburst=${iburst}": }
