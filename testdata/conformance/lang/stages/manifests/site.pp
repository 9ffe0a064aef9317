stage { 'pre': before => Stage['main'] }
stage { 'post': }
Stage['main'] -> Stage['post']
class repos { notify { 'repos': } }
class cleanup { notify { 'cleanup': } }
class app { notify { 'app': } }
class { 'repos': stage => 'pre' }
class { 'cleanup': stage => 'post' }
include app
