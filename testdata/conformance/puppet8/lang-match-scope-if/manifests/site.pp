$fqdn_str = 'app12.dc1.example.com'
if $fqdn_str =~ /^([a-z]+)(\d+)\.([a-z0-9]+)\./ {
  notify { "whole=${0} name=${1} num=${2} dc=${3}": }
}
notify { "outside=[${1}]": }
