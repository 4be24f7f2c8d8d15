// Package torch reads the files torch.save writes (PyTorch >= 1.6): a zip
// archive that holds FOLDER/data.pkl, a pickle of the saved object, and
// one member FOLDER/data/KEY for each storage the pickle names by a
// persistent id.
//
// Parse indexes a whole archive as an npy.TensorFile. The pickle is run by
// a restricted machine (pickle.go) that admits what
// torch.load(weights_only=True) of PyTorch 1.13 admits and calls nothing:
// an admitted global builds a Go value describing what PyTorch would have
// built. Every tensor found, named by the dict keys and list indices on
// its path joined with '.', becomes a strided view (npy.Tensor's Strides
// and Offset) of its storage, checked to lie inside it; a stored storage
// is a range of the file, a compressed one a Record inflated only as far
// as a tensor reaches. Memory, time and the names built are bounded
// whatever the bytes (see pickle.go and the walker in torchfile.go).
//
// Folder and Prefix find an archive's FOLDER, which is how package formats
// tells a torch.save zip from an .npz one; LegacyMagic starts the files of
// PyTorch before 1.6, which are refused with advice. torch neither opens
// files nor turns tensors into arrays; its errors match npy.ErrFormat or
// npy.ErrUnsupported under errors.Is.
package torch
