define sample (String $port, Array $hosts = [], Optional[String] $note = undef, Boolean $enabled = true) {
  notify { "${title}: default filter": message => extlib::dump_params() }
  notify { "${title}: filter port": message => extlib::dump_params(['port', 'name']) }
  notify { "${title}: empty filter": message => extlib::dump_params([]) }
}
sample { 'one': port => '80', hosts => ['a', 'b'] }
sample { 'two': port => '443', note => 'ü', enabled => false }
