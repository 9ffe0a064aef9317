class web (
  $port = 80,
) {
  $nothing = undef
  notify { "class=${title} name=${name} port=${port} nothing=${nothing}": }
}
include web
define site::thing ($mode = "a") {
  notify { "define title=${title} name=${name} mode=${mode}": }
}
site::thing { "t1": }
[1, 2].each |$i| { notify { "i=${i}": } }
if "abc" =~ /^(a)(b)/ {
  notify { "match=${0} ${1} ${2}": }
}
notify { "fact=${facts["hostname"]} legacy=${hostname} top=${::domain}": }
