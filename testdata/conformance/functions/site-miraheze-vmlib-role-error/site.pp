class role::a { }
class role::b { }
role('a')
role('b')
