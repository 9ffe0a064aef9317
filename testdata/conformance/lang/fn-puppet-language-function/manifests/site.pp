notify { "r=${mylib::double(21)} g=${mylib::greet('ops')}": }
