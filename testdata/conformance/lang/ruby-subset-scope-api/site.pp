define api::thing($n = 1) { }
class api::extra { }
api::thing { 'a': n => 2 }
include api
notify { 'three': message => api_info3() }
notify { 'four': message => api::info4('Integer[1,3]') }
