$top = 'T'
class settingsy {
  $port = 8080
}
include settingsy
notify { "port=${settingsy::port} top=${::top}": }
