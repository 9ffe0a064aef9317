notify { "r=${mylib::double('x')}": }
