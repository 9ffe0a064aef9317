class limited(Integer[1, 10] $count) { }
class { 'limited': count => 11 }
