class profile::web (Integer $workers = 1) {
  notify { "workers=${workers}": }
}
include profile::web
notify { 'app first': message => lookup('app') }
notify { 'app deep': message => lookup('app', Hash, 'deep') }
notify { 'settings deep': message => lookup('settings', Hash, 'deep') }
notify { 'motd': message => lookup('motd') }
