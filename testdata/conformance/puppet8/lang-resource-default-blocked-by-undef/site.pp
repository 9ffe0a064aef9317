Notify { message => 'dflt', withpath => true }
notify { 'a': message => undef }
$u = undef
notify { 'b': withpath => $u }
notify { 'c': }
