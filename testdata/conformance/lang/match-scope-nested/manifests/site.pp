if 'outer-1' =~ /(\w+)-(\d)/ {
  if 'inner' =~ /(in)/ {
    notify { "nested 1=${1} 2=[${2}]": }
  }
  notify { "back 1=${1} 2=${2}": }
}
