class names(Array[String] $names) { }
class { 'names': names => ['a', 1] }
