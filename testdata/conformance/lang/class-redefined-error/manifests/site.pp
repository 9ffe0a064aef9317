class a { notify { 'a1': } }
class a { notify { 'a2': } }
include a
