node /www(\d+)/ {
  notify { "whole=${0} first=${1}": }
}
