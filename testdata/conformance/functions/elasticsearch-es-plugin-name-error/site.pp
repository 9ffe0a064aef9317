notify { 'no usable name': message => es_plugin_name('', undef) }
