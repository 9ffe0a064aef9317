class versions(Pattern[/^v\d+$/] $version) { }
class { 'versions': version => '12' }
