$host = 'db-03.prod'
case $host {
  /^web-(\d+)/: { $what = "web ${1}" }
  /^(\w+)-(\d+)\.(\w+)$/: { $what = "role=${1} num=${2} env=${3} all=${0}" }
  default: { $what = 'none' }
}
notify { "${what} after=[${1}]": }
