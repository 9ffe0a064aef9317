notify { "top=${mail_server} qualified=${::mail_server}": }
class mail {
  notify { "class sees ${mail_server}": }
}
include mail
