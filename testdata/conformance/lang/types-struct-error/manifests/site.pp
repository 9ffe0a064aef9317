class specs(Struct[{name => String, size => Integer}] $spec) { }
class { 'specs': spec => {'name' => 'disk', 'size' => 'big'} }
