node /^www(\d+)\.(\w+)\.example\.com$/ {
  $number = $1
  notify { "number=${number} tier=${2}": }
}
