hiera_include('classes')
