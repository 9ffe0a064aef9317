class levels(Enum['low', 'high'] $level) { }
class { 'levels': level => 'medium' }
