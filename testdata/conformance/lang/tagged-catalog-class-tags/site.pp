notify { "before=${tagged('someclass')}": }
class someclass { }
class a::b { }
class other {
  notify { "inother=${tagged('a')},${tagged('b')},${tagged('other')},${tagged('someclass', 'a::b')},${tagged('nope')}": }
}
include someclass
include a::b
notify { "after=${tagged('someclass')},${tagged('a')},${tagged('b')},${tagged('a::b')},${tagged('SomeClass')},${tagged(['someclass', 'b'])}": }
include other
