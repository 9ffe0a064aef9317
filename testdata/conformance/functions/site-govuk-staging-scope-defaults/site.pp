Exec { path => '/bin' }
class c {
  File { mode => '0644' }
  notify { 'in class': message => [scope_defaults('exec', 'path'), scope_defaults('file', 'mode'), scope_defaults('file', 'owner'), scope_defaults('package', 'ensure')] }
}
include c
notify { 'top': message => [scope_defaults('exec', 'path'), scope_defaults('file', 'mode')] }
